"""The patterns training code uses distributions for: a VAE's reparameterised sample and KL
term, a REINFORCE policy gradient, a flow fitted by maximum likelihood, and a Gaussian
mixture fitted by gradient descent."""

import math

import engine
import engine.distributions as D
import numpy as np


def test_vae_step_reparameterisation_and_kl():
    engine.manual_seed(0)
    mu = engine.zeros(4, 2, requires_grad=True)
    log_var = engine.zeros(4, 2, requires_grad=True)
    q = D.Normal(mu, (0.5 * log_var).exp())
    z = q.rsample()
    prior = D.Normal(engine.zeros(2), engine.ones(2))
    loss = (z**2).sum() + D.kl_divergence(q, prior).sum()
    loss.backward()
    assert mu.grad is not None and log_var.grad is not None
    # d/dmu of z^2 is 2 z (the KL term's mu-gradient is mu = 0)
    np.testing.assert_allclose(mu.grad.numpy(), 2 * z.detach().numpy(), rtol=1e-6)


def test_reinforce_gradient_direction():
    engine.manual_seed(0)
    logits = engine.zeros(3, requires_grad=True)
    optimizer = engine.optim.SGD([logits], lr=0.5)
    reward = engine.tensor([0.0, 0.0, 1.0])  # only action 2 pays
    for _ in range(200):
        policy = D.Categorical(logits=logits)
        actions = policy.sample((16,))
        loss = -(policy.log_prob(actions) * reward[actions]).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert D.Categorical(logits=logits).probs[2].item() > 0.9


def test_flow_fitted_by_maximum_likelihood():
    engine.manual_seed(0)
    data = D.LogNormal(engine.tensor(1.0), engine.tensor(0.5)).sample((4000,))
    loc = engine.zeros((), requires_grad=True)
    log_scale = engine.zeros((), requires_grad=True)
    optimizer = engine.optim.Adam([loc, log_scale], lr=0.05)
    base = D.Normal(engine.tensor(0.0), engine.tensor(1.0))
    for _ in range(300):
        flow = D.TransformedDistribution(
            base, [D.AffineTransform(loc, log_scale.exp()), D.ExpTransform()]
        )
        loss = -flow.log_prob(data).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert abs(loc.item() - 1.0) < 0.05 and abs(log_scale.exp().item() - 0.5) < 0.05


def test_gaussian_mixture_fit():
    engine.manual_seed(0)
    data = engine.cat([engine.randn(500) * 0.3 - 2.0, engine.randn(500) * 0.3 + 2.0])
    logits = engine.zeros(2, requires_grad=True)
    means = engine.tensor([-0.5, 0.5], requires_grad=True)
    log_scales = engine.zeros(2, requires_grad=True)
    optimizer = engine.optim.Adam([logits, means, log_scales], lr=0.05)
    for _ in range(300):
        gmm = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(means, log_scales.exp()))
        loss = -gmm.log_prob(data).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    np.testing.assert_allclose(sorted(means.tolist()), [-2.0, 2.0], atol=0.1)
    assert abs(loss.item() - (0.5 * math.log(2 * math.pi * 0.09) + 0.5 + math.log(2))) < 0.1
