# Median full training step (fwd + bwd + SGD momentum) for the three reference models.
# The team's PyTorch anchor (plus the 'purchase' MLP of docs/protocol.md); used by `pnpm bench`.
# Usage: /usr/bin/python3 bench_torch.py <purchase|mlp|smallcnn|resnet18> <threads> <steps> [nchw|cl] [batch] [fp32|bf16]
# bf16: the forward pass and the loss under torch.autocast('cpu', dtype=torch.bfloat16) (mixed precision:
# convolutions and matrix products in bfloat16, weights and the optimizer in fp32).
import sys, time, json, statistics, torch, torch.nn as nn
from models_torch import MLP, ResNet18, SmallCNN, forward_flops
model_name = sys.argv[1]; threads = int(sys.argv[2]); steps = int(sys.argv[3])
fmt = sys.argv[4] if len(sys.argv) > 4 else 'nchw'
B = int(sys.argv[5]) if len(sys.argv) > 5 else 128
precision = sys.argv[6] if len(sys.argv) > 6 else 'fp32'
if precision not in ('fp32', 'bf16'): raise SystemExit(f'bench_torch.py: precision must be fp32 or bf16, got {precision}')
torch.set_num_threads(threads); torch.manual_seed(0)
if model_name == 'purchase':
    m = MLP('tanh', (600, 1024, 512, 256, 128, 100))
    x = (torch.rand(B, 600) < 0.5).float(); y = torch.randint(0, 100, (B,))
elif model_name.startswith('mlp'):
    m = MLP(model_name.split('_')[1] if '_' in model_name else 'tanh')
    x = (torch.rand(B, 600) < 0.5).float(); y = torch.randint(0, 100, (B,))
else:
    m = ResNet18() if model_name == 'resnet18' else SmallCNN()
    x = torch.randn(B, 3, 32, 32); y = torch.randint(0, 10, (B,))
    if fmt == 'cl':
        m = m.to(memory_format=torch.channels_last); x = x.contiguous(memory_format=torch.channels_last)
fwd = forward_flops(m, x)
opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
lossf = nn.CrossEntropyLoss()
m.train()
def step():
    opt.zero_grad(set_to_none=True)
    with torch.autocast('cpu', dtype=torch.bfloat16, enabled=precision == 'bf16'):
        loss = lossf(m(x), y)
    loss.backward(); opt.step()
    return loss.item()
for _ in range(2): step()
ts = []; cs = []
for _ in range(steps):
    c0 = time.process_time(); t0 = time.perf_counter(); step(); ts.append(time.perf_counter() - t0); cs.append(time.process_time() - c0)
med = statistics.median(ts)
train_flops = 3 * fwd
print(json.dumps(dict(engine='pytorch', torch=torch.__version__, model=model_name, fmt=fmt, threads=threads, batch=B, precision=precision,
                      ms_step=round(med * 1e3, 2), cpu_ms_step=round(statistics.median(cs) * 1e3, 2), min_ms=round(min(ts) * 1e3, 2), img_s=round(B / med, 1),
                      fwd_gflop=round(fwd / 1e9, 4), train_gflop_3x=round(train_flops / 1e9, 3),
                      gflops=round(train_flops / med / 1e9, 2), steps=steps)))
