"""Reference parameter counts and forward FLOPs of the @mia/models architectures, from PyTorch.

Run with Debian's torch: /usr/bin/python3 packages/models/scripts/reference-counts.py
The numbers are copied as literals into the *.test.ts files (the tests never run Python).
torchvision models are used as is; the CIFAR models are re-typed from their reference repositories
(kuangliu/pytorch-cifar GoogLeNet and DenseNet121, xternalz WideResNet, weiaicunzai InceptionV4,
the CIFAR VGG11-BN of RelaxLoss/bearpaw) in the compact form below.
"""
import sys, torch, torch.nn as nn, torchvision
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'bench', 'pytorch'))
from models_torch import BasicBlock, ResNet18, SmallCNN, forward_flops

def count(m): return sum(p.numel() for p in m.parameters())

def cbr(i, o, k=3, s=1, p=0, bias=True): return [nn.Conv2d(i, o, k, s, p, bias=bias), nn.BatchNorm2d(o), nn.ReLU()]

class Cat(nn.Module):
    def __init__(self, *bs): super().__init__(); self.bs = nn.ModuleList(bs)
    def forward(self, x): return torch.cat([b(x) for b in self.bs], 1)

class Head(nn.Module):
    def __init__(self, body, c, nc): super().__init__(); self.body = body; self.fc = nn.Linear(c, nc)
    def forward(self, x): return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(self.body(x), 1), 1))

def vgg11bn(nc):
    layers, c = [], 3
    for v in [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M']:
        if v == 'M': layers.append(nn.MaxPool2d(2))
        else: layers += cbr(c, v, 3, 1, 1); c = v
    return Head(nn.Sequential(*layers), 512, nc)

def googlenet(nc):
    def inc(i, n1, r3, n3, r5, n5, pp):
        return Cat(nn.Sequential(*cbr(i, n1, 1)), nn.Sequential(*cbr(i, r3, 1), *cbr(r3, n3, 3, 1, 1)),
                   nn.Sequential(*cbr(i, r5, 1), *cbr(r5, n5, 3, 1, 1), *cbr(n5, n5, 3, 1, 1)),
                   nn.Sequential(nn.MaxPool2d(3, 1, 1), *cbr(i, pp, 1)))
    mp = lambda: nn.MaxPool2d(3, 2, 1)
    return Head(nn.Sequential(*cbr(3, 192, 3, 1, 1), inc(192, 64, 96, 128, 16, 32, 32), inc(256, 128, 128, 192, 32, 96, 64), mp(),
        inc(480, 192, 96, 208, 16, 48, 64), inc(512, 160, 112, 224, 24, 64, 64), inc(512, 128, 128, 256, 24, 64, 64),
        inc(512, 112, 144, 288, 32, 64, 64), inc(528, 256, 160, 320, 32, 128, 128), mp(),
        inc(832, 256, 160, 320, 32, 128, 128), inc(832, 384, 192, 384, 48, 128, 128)), 1024, nc)

class WBlock(nn.Module):
    def __init__(self, i, o, s):
        super().__init__(); self.bn1 = nn.BatchNorm2d(i); self.c1 = nn.Conv2d(i, o, 3, s, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(o); self.c2 = nn.Conv2d(o, o, 3, 1, 1, bias=False)
        self.sc = None if (i == o and s == 1) else nn.Conv2d(i, o, 1, s, 0, bias=False)
    def forward(self, x):
        a = torch.relu(self.bn1(x)); out = self.c2(torch.relu(self.bn2(self.c1(a))))
        return out + (x if self.sc is None else self.sc(a))

def wrn(depth, k, nc):
    n = (depth - 4) // 6; layers, c = [nn.Conv2d(3, 16, 3, 1, 1, bias=False)], 16
    for g, w in enumerate([16 * k, 32 * k, 64 * k]):
        for j in range(n): layers.append(WBlock(c, w, 2 if (j == 0 and g > 0) else 1)); c = w
    return Head(nn.Sequential(*layers, nn.BatchNorm2d(c), nn.ReLU()), c, nc)

def inception_v4(nc):
    B = lambda i, o, k, s=1, p=0: nn.Sequential(*cbr(i, o, k, s, p, bias=False))
    S = nn.Sequential
    ap = lambda i, o: S(nn.AvgPool2d(3, 1, 1), B(i, o, 1))
    stem = S(B(3, 32, 3), B(32, 32, 3, 1, 1), B(32, 64, 3, 1, 1), Cat(B(64, 96, 3, 1, 1), nn.MaxPool2d(3, 1, 1)),
             Cat(S(B(160, 64, 1), B(64, 64, (7, 1), 1, (3, 0)), B(64, 64, (1, 7), 1, (0, 3)), B(64, 96, 3, 1, 1)), S(B(160, 64, 1), B(64, 96, 3, 1, 1))),
             Cat(nn.MaxPool2d(3, 1, 1), B(192, 192, 3, 1, 1)))
    A = lambda: Cat(S(B(384, 64, 1), B(64, 96, 3, 1, 1), B(96, 96, 3, 1, 1)), S(B(384, 64, 1), B(64, 96, 3, 1, 1)), B(384, 96, 1), ap(384, 96))
    RA = Cat(S(B(384, 192, 1), B(192, 224, 3, 1, 1), B(224, 256, 3, 2)), B(384, 384, 3, 2), nn.MaxPool2d(3, 2))
    Bb = lambda: Cat(S(B(1024, 192, 1), B(192, 192, (1, 7), 1, (0, 3)), B(192, 224, (7, 1), 1, (3, 0)), B(224, 224, (1, 7), 1, (0, 3)), B(224, 256, (7, 1), 1, (3, 0))),
                     S(B(1024, 192, 1), B(192, 224, (1, 7), 1, (0, 3)), B(224, 256, (7, 1), 1, (3, 0))), B(1024, 384, 1), ap(1024, 128))
    RB = Cat(S(B(1024, 256, 1), B(256, 256, (1, 7), 1, (0, 3)), B(256, 320, (7, 1), 1, (3, 0)), B(320, 320, 3, 2, 1)),
             S(B(1024, 192, 1), B(192, 192, 3, 2, 1)), nn.MaxPool2d(3, 2, 1))
    C = lambda: Cat(B(1536, 256, 1), S(B(1536, 384, 1), Cat(B(384, 256, (3, 1), 1, (1, 0)), B(384, 256, (1, 3), 1, (0, 1)))),
                    S(B(1536, 384, 1), B(384, 448, (1, 3), 1, (0, 1)), B(448, 512, (3, 1), 1, (1, 0)), Cat(B(512, 256, (1, 3), 1, (0, 1)), B(512, 256, (3, 1), 1, (1, 0)))),
                    ap(1536, 256))
    return Head(S(stem, *[A() for _ in range(4)], RA, *[Bb() for _ in range(7)], RB, *[C() for _ in range(3)]), 1536, nc)

def densenet_cifar(nc):
    m = torchvision.models.densenet121(num_classes=nc)
    m.features.conv0 = nn.Conv2d(3, 64, 3, 1, 1, bias=False); del m.features.norm0; del m.features.pool0
    return m

def resnet18_width(w, nc):
    layers, c = [nn.Conv2d(3, w, 3, 1, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU()], w
    for cw, st in [(w, 1), (2 * w, 2), (4 * w, 2), (8 * w, 2)]:
        layers += [BasicBlock(c, cw, st), BasicBlock(cw, cw, 1)]; c = cw
    return Head(nn.Sequential(*layers), c, nc)

x32 = torch.zeros(1, 3, 32, 32)
rows = [
    ('mlp purchase C=100', nn.Sequential(nn.Linear(600, 1024), nn.Tanh(), nn.Linear(1024, 512), nn.Tanh(), nn.Linear(512, 256), nn.Tanh(), nn.Linear(256, 128), nn.Tanh(), nn.Linear(128, 100)), torch.zeros(1, 600)),
    ('resnet18 cifar C=10', ResNet18(10), x32),
    ('resnet18 width 16 (narrow) C=10', resnet18_width(16, 10), x32),
    ('resnet34 torchvision C=1000 @32', torchvision.models.resnet34(), x32),
    ('resnet18 torchvision C=1000', torchvision.models.resnet18(), torch.zeros(1, 3, 224, 224)),
    ('resnet34 torchvision C=1000', torchvision.models.resnet34(), torch.zeros(1, 3, 224, 224)),
    ('small-cnn C=10', SmallCNN(10), x32),
    ('vgg11-bn cifar C=10', vgg11bn(10), x32),
    ('densenet121 torchvision C=1000', torchvision.models.densenet121(), torch.zeros(1, 3, 224, 224)),
    ('densenet121 torchvision C=100 @32', torchvision.models.densenet121(num_classes=100), x32),
    ('densenet121 cifar-stem C=10', densenet_cifar(10), x32),
    ('wrn-16-8 C=10', wrn(16, 8, 10), x32),
    ('googlenet cifar C=10', googlenet(10), x32),
    ('inception-v4 cifar C=100', inception_v4(100), x32),
]
for name, m, x in rows:
    m.eval()
    print(f'{name:36s} params {count(m):>12,d}  fwd FLOPs {forward_flops(m, x):>16,d}')
