"""DistributedSampler: PyTorch's indices for every rank (fixture recorded from PyTorch 2.13),
lengths, padding and drop_last, epochs, errors, and use with the DataLoader."""

import json
import pathlib

import engine
import pytest
from engine.utils.data import DataLoader, DistributedSampler, TensorDataset

RECORDS = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "distributed_sampler.json").read_text()
)


def _case_id(record):
    return "n{length}-r{num_replicas}-shuffle{shuffle}-seed{seed}-drop{drop_last}-e{epoch}".format(
        **record
    )


@pytest.mark.parametrize("record", RECORDS, ids=_case_id)
def test_indices_match_pytorch(record):
    for rank, expected in enumerate(record["ranks"]):
        sampler = DistributedSampler(
            range(record["length"]),
            num_replicas=record["num_replicas"],
            rank=rank,
            shuffle=record["shuffle"],
            seed=record["seed"],
            drop_last=record["drop_last"],
        )
        sampler.set_epoch(record["epoch"])
        assert list(sampler) == expected["indices"]
        assert len(sampler) == expected["len"]


def test_ranks_partition_the_padded_dataset():
    samplers = [DistributedSampler(range(10), 4, r, shuffle=True, seed=5) for r in range(4)]
    seen = sorted(i for s in samplers for i in s)
    assert len(seen) == 12 and set(seen) == set(range(10))  # two indices repeated as padding
    dropped = [DistributedSampler(range(10), 4, r, drop_last=True) for r in range(4)]
    seen = [i for s in dropped for i in s]
    assert len(seen) == 8 == len(set(seen))


def test_epoch_changes_the_order_the_same_way_on_every_rank():
    sampler = DistributedSampler(range(50), 2, 0)
    first = list(sampler)
    assert list(sampler) == first  # same epoch, same order
    sampler.set_epoch(1)
    assert sampler.epoch == 1 and list(sampler) != first
    partner = DistributedSampler(range(50), 2, 1)
    partner.set_epoch(1)
    assert not set(sampler) & set(partner)


def test_invalid_rank():
    with pytest.raises(
        ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"
    ):
        DistributedSampler(range(10), num_replicas=2, rank=2)
    with pytest.raises(ValueError, match=r"Invalid rank -1"):
        DistributedSampler(range(10), num_replicas=2, rank=-1)


def test_world_from_the_process_group_needs_it_initialized():
    import engine.distributed as dist

    if dist.is_available():
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            DistributedSampler(range(10))
    else:  # no mpi4py: PyTorch's error for a build without torch.distributed
        with pytest.raises(RuntimeError, match="Requires distributed package to be available"):
            DistributedSampler(range(10))


def test_with_data_loader():
    dataset = TensorDataset(engine.arange(20))
    sampler = DistributedSampler(dataset, num_replicas=3, rank=1, shuffle=False)
    batches = [b[0].tolist() for b in DataLoader(dataset, batch_size=3, sampler=sampler)]
    assert batches == [[1, 4, 7], [10, 13, 16], [19]]
    assert engine.utils.data.DistributedSampler is DistributedSampler
