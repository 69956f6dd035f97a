"""A custom Function inside an nn.Module, trained the way open-source projects train one.

`RoundSTE` is a straight-through quantiser (round in forward, identity gradient in backward),
written in PyTorch's `forward` + `setup_context` style so that the same file runs under PyTorch
(engine also accepts the tutorial's `forward(ctx, ...)` + `setup_context`). `QuantizedMLP` uses it
on its hidden activations; Adam trains it on a synthetic regression task fed by a DataLoader; the
weights are saved with `engine.save` and reloaded into a fresh model, which predicts the same.

    python examples/train_custom_function.py           # with engine
    python examples/train_custom_function.py torch     # the same script under PyTorch
"""

import io
import sys

torch = __import__(sys.argv[1] if len(sys.argv) > 1 else "engine")
nn = torch.nn
from_data = __import__(torch.__name__ + ".utils.data", fromlist=["DataLoader", "TensorDataset"])


class RoundSTE(torch.autograd.Function):
    """Rounds to a grid of step `scale`; the gradient passes straight through."""

    @staticmethod
    def forward(x, scale):
        return torch.round(x / scale) * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1]

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


class QuantizedMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out, scale=0.25):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.scale = scale

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        return self.fc2(RoundSTE.apply(h, self.scale))


def main(epochs=5):
    torch.manual_seed(0)
    x = torch.randn(256, 8)
    true_w = torch.randn(8, 1)
    y = torch.sin(x @ true_w) + 0.1 * torch.randn(256, 1)
    loader = from_data.DataLoader(from_data.TensorDataset(x, y), batch_size=32, shuffle=True)

    model = QuantizedMLP(8, 32, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.MSELoss()
    print(model)
    for epoch in range(epochs):
        total = 0.0
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(xb)
        print(f"epoch {epoch}: loss {total / len(x):.4f}")

    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    restored = QuantizedMLP(8, 32, 1)
    print(restored.load_state_dict(torch.load(buffer)))
    with torch.no_grad():
        same = torch.equal(restored(x), model(x))
    print("restored model predicts the same:", same)
    return total / len(x)


if __name__ == "__main__":
    main()
