import torch, torch.nn as nn, torch.nn.functional as F

class MLP(nn.Module):
    # Purchase100-style: 600 -> 1024 -> 512 -> 256 -> 100 (default, as in docs/performance.md), or any widths.
    # The Purchase model of docs/protocol.md is widths=(600, 1024, 512, 256, 128, 100) ('purchase' in bench_torch.py).
    def __init__(self, act='tanh', widths=(600, 1024, 512, 256, 100)):
        super().__init__()
        self.l = nn.ModuleList([nn.Linear(a, b) for a, b in zip(widths[:-1], widths[1:])])
        self.act = torch.tanh if act == 'tanh' else F.relu
    def forward(self, x):
        for i, l in enumerate(self.l):
            x = l(x)
            if i < len(self.l) - 1: x = self.act(x)
        return x

class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False); self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False); self.b2 = nn.BatchNorm2d(cout)
        self.sc = None
        if stride != 1 or cin != cout:
            self.sc = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(self, x):
        o = F.relu(self.b1(self.c1(x)))
        o = self.b2(self.c2(o))
        return F.relu(o + (x if self.sc is None else self.sc(x)))

class ResNet18(nn.Module):
    # CIFAR variant: 3x3 stem, no maxpool, BasicBlocks [2,2,2,2], widths 64..512 (width w: w..8w)
    def __init__(self, nc=10, width=64):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, 1, 1, bias=False); self.bn = nn.BatchNorm2d(width)
        layers, cin = [], width
        for w, s in [(width, 1), (2 * width, 2), (4 * width, 2), (8 * width, 2)]:
            layers += [BasicBlock(cin, w, s), BasicBlock(w, w, 1)]; cin = w
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(8 * width, nc)
    def forward(self, x):
        x = F.relu(self.bn(self.stem(x)))
        x = self.layers(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)

class SmallCNN(nn.Module):
    # conv32-conv32-pool-conv64-pool-conv128-GAP-dense10, BN after every conv
    def __init__(self, nc=10):
        super().__init__()
        def cbr(i, o): return [nn.Conv2d(i, o, 3, 1, 1), nn.BatchNorm2d(o), nn.ReLU()]
        self.f = nn.Sequential(*cbr(3, 32), *cbr(32, 32), nn.MaxPool2d(2), *cbr(32, 64), nn.MaxPool2d(2), *cbr(64, 128))
        self.fc = nn.Linear(128, nc)
    def forward(self, x):
        return self.fc(F.adaptive_avg_pool2d(self.f(x), 1).flatten(1))

def forward_flops(model, x):
    """FLOPs (2*MAC) of conv and linear layers in one forward pass of the batch."""
    tot = [0]
    def conv_hook(m, i, o):
        tot[0] += 2 * o.numel() * (m.in_channels // m.groups) * m.kernel_size[0] * m.kernel_size[1]
    def lin_hook(m, i, o):
        tot[0] += 2 * o.numel() * m.in_features
    hs = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d): hs.append(m.register_forward_hook(conv_hook))
        if isinstance(m, nn.Linear): hs.append(m.register_forward_hook(lin_hook))
    with torch.no_grad(): model(x)
    for h in hs: h.remove()
    return tot[0]
