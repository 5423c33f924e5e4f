"""jitgemm inside PyTorch models: ``torch.ops.jitgemm.matmul`` as a custom operator (torch.library) with a fake
implementation, so that ``torch.compile`` traces through it without a graph break, and ``use_for_linear_layers``,
which makes the ``torch.nn.Linear`` layers of a module multiply through it.

    import jitgemm.torch
    y = torch.ops.jitgemm.matmul(x, w)        # or jitgemm.torch.matmul(x, w)
    jitgemm.torch.use_for_linear_layers(model)
"""

from __future__ import annotations

import torch

from . import matmul as _jitgemm_matmul


@torch.library.custom_op("jitgemm::matmul", mutates_args=())
def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a @ b for CUDA tensors of one dtype (float32, float16, bfloat16), on the current stream: 2-D, or 3-D batches
    (batch, rows, cols) as jitgemm.matmul takes them (a 2-D operand or a batch of 1 shared by every GEMM)."""
    return _jitgemm_matmul(a, b)


@matmul.register_fake
def _(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    torch._check(a.dim() in (2, 3) and b.dim() in (2, 3),
                 lambda: f"jitgemm::matmul multiplies 2-D tensors and 3-D batches, not {a.dim()}-D @ {b.dim()}-D")
    torch._check(a.shape[-1] == b.shape[-2], lambda: f"jitgemm::matmul: shapes {tuple(a.shape)} @ {tuple(b.shape)}")
    if a.dim() == 2 and b.dim() == 2:
        return a.new_empty((a.shape[0], b.shape[1]))
    batch_a = a.shape[0] if a.dim() == 3 else 1
    batch_b = b.shape[0] if b.dim() == 3 else 1
    torch._check(batch_a == batch_b or batch_a == 1 or batch_b == 1,
                 lambda: f"jitgemm::matmul: the batches of {tuple(a.shape)} and {tuple(b.shape)} differ")
    batch = batch_b if batch_a == 1 else batch_a
    return a.new_empty((batch, a.shape[-2], b.shape[-1]))


def _linear_forward(layer: torch.nn.Linear, x: torch.Tensor) -> torch.Tensor:
    rows = x.reshape(-1, x.shape[-1])
    if not rows.is_contiguous():
        rows = rows.contiguous()
    y = torch.ops.jitgemm.matmul(rows, layer.weight.t())  # weight.t() is a column-major view: no copy
    if layer.bias is not None:
        y = y + layer.bias
    return y.reshape(*x.shape[:-1], layer.out_features)


def use_for_linear_layers(module: torch.nn.Module) -> int:
    """Makes every torch.nn.Linear in `module` (itself included) compute its product through jitgemm; returns how
    many layers were changed. Inference only: the operator has no backward."""
    changed = 0
    for layer in module.modules():
        if isinstance(layer, torch.nn.Linear):
            layer.forward = _linear_forward.__get__(layer)  # bound to the layer
            changed += 1
    return changed
