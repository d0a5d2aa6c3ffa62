# Eval-mode logits of N CIFAR-10-shaped images with the CIFAR-stem ResNet-18 at a given width, for
# `pnpm bench --inference`. Usage: /usr/bin/python3 infer_torch.py <width> <threads> <passes> <images> <batch>
import sys, time, json, torch
from models_torch import ResNet18
width = int(sys.argv[1]); threads = int(sys.argv[2]); passes = int(sys.argv[3])
n = int(sys.argv[4]); B = int(sys.argv[5])
torch.set_num_threads(threads); torch.manual_seed(0)
m = ResNet18(width=width).to(memory_format=torch.channels_last).eval()
x = torch.randn(n, 3, 32, 32).contiguous(memory_format=torch.channels_last)
def logits(count):
    out = []
    with torch.inference_mode():
        for s in range(0, count, B):
            out.append(m(x[s:s + B]).numpy().copy())
    return out
logits(B)
runs = []
for _ in range(passes):
    c0 = time.process_time(); t0 = time.perf_counter(); logits(n)
    runs.append(dict(wall=time.perf_counter() - t0, cpu=time.process_time() - c0))
print(json.dumps(dict(torch=torch.__version__, width=width, threads=threads, passes=runs)))
