"""A small training step that calls cuBLAS (matmul), cuDNN (conv2d) and syncs once per step through
loss.item(): the workload of the GPU checks for --trace=cublas,cudnn and --python-backtrace=cuda.
Writes what the checker needs to know (steps, the line of the .item() call) to the json path given."""
import json
import sys

import torch

STEPS = 20


def step(conv, weight, images):
    features = conv(images)                       # cuDNN convolution
    flat = features.flatten(1)
    logits = flat @ weight                        # cuBLAS GEMM
    loss = logits.square().mean()
    loss.backward()
    return loss.item()                            # the per-step sync: SYNC_LINE


def main():
    torch.backends.cudnn.benchmark = False
    conv = torch.nn.Conv2d(3, 16, 3, padding=1).cuda()
    weight = torch.randn(16 * 32 * 32, 64, device="cuda", requires_grad=True)
    images = torch.randn(8, 3, 32, 32, device="cuda")
    for _ in range(STEPS):
        step(conv, weight, images)
    torch.cuda.synchronize()
    if len(sys.argv) > 1:
        source = open(__file__).read().splitlines()
        sync_line = next(i + 1 for i, text in enumerate(source) if text.rstrip().endswith("SYNC_LINE"))
        json.dump({"steps": STEPS, "sync_line": sync_line, "sync_function": "step"}, open(sys.argv[1], "w"))


if __name__ == "__main__":
    main()
