"""DLPack exchange (``torch.utils.dlpack``): ``to_dlpack`` makes a capsule sharing a tensor's
memory, ``from_dlpack`` makes a tensor sharing another library's memory."""

from engine._dlpack import DLDeviceType, from_dlpack, to_dlpack

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]
