// The SAM-privacy paper's numbers (arXiv:2310.00488), as fractions. Rows are "<dataset> · <algo>".

/** Table 1 (main text, §4): mean (± std) over 5 attack splits: [test acc, single-query acc, multi-query acc]. */
export const TABLE1: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  'CIFAR-100 · SGD': [
    [0.7992, 0.004],
    [0.7668, 0.0038],
    [0.6918, 0.0014],
  ],
  'CIFAR-100 · SAM': [
    [0.8204, 0.0032],
    [0.7909, 0.0056],
    [0.6541, 0.001],
  ],
  'CIFAR-100 · SharpReg': [
    [0.7586, 0.0024],
    [0.5964, 0.0069],
    [0.6015, 0.0056],
  ],
  'CIFAR-10 · SGD': [
    [0.9588, 0.0016],
    [0.5905, 0.003],
    [0.5636, 0.0012],
  ],
  'CIFAR-10 · SAM': [
    [0.9654, 0.0006],
    [0.6132, 0.0035],
    [0.5401, 0.0007],
  ],
  'CIFAR-10 · SharpReg': [
    [0.9358, 0.0029],
    [0.533, 0.0064],
    [0.5368, 0.009],
  ],
  'Purchase-100 · SGD': [
    [0.8495, 0.0038],
    [0.663, 0.0063],
    [0.6527, 0.0033],
  ],
  'Purchase-100 · SAM': [
    [0.8483, 0.004],
    [0.6659, 0.0086],
    [0.6584, 0.0024],
  ],
  'Purchase-100 · SharpReg': [
    [0.8134, 0.0061],
    [0.6051, 0.012],
    [0.6064, 0.0107],
  ],
  'Texas-100 · SGD': [
    [0.5067, 0.004],
    [0.6413, 0.016],
    [0.6361, 0.015],
  ],
  'Texas-100 · SAM': [
    [0.515, 0.0024],
    [0.6739, 0.016],
    [0.6627, 0.016],
  ],
  'Texas-100 · SharpReg': [
    [0.4978, 0.0072],
    [0.6062, 0.011],
    [0.5927, 0.0069],
  ],
};

/**
 * Table 2 (§5.2): relative change vs SGD of Table 1's means: [test acc, DSQ attack, label-only attack].
 * CIFAR-100 SharpReg's DSQ cell is empty in the table; −22.22 % is from the text of §5.2.
 */
export const TABLE2: Readonly<Record<string, readonly number[]>> = {
  'CIFAR-100 · SAM': [0.0265, 0.0314, -0.0545],
  'CIFAR-100 · SharpReg': [-0.0508, -0.2222, -0.1305],
  'CIFAR-10 · SAM': [0.0069, 0.0384, -0.0417],
  'CIFAR-10 · SharpReg': [-0.024, -0.0974, -0.0476],
  'Purchase-100 · SAM': [-0.0014, 0.0044, 0.0087],
  'Purchase-100 · SharpReg': [-0.0425, -0.0873, -0.0709],
  'Texas-100 · SAM': [0.0164, 0.0508, 0.0418],
  'Texas-100 · SharpReg': [-0.0176, -0.0547, -0.0682],
};

/** Table 3 (App. C.4): single run, per attack: [NN, confidence, correctness, entropy, modified entropy]. */
export const TABLE3: Readonly<Record<string, readonly number[]>> = {
  'CIFAR-100 · SGD': [0.7686, 0.5971, 0.7704, 0.767, 0.7697],
  'CIFAR-100 · SAM': [0.7873, 0.5862, 0.791, 0.7866, 0.7925],
  'CIFAR-100 · SharpReg': [0.5762, 0.5842, 0.5969, 0.5788, 0.5969],
  'CIFAR-10 · SGD': [0.5017, 0.5191, 0.5895, 0.5887, 0.5899],
  'CIFAR-10 · SAM': [0.5001, 0.6112, 0.5164, 0.611, 0.6181],
  'CIFAR-10 · SharpReg': [0.5022, 0.521, 0.5286, 0.5247, 0.5278],
  'Purchase-100 · SGD': [0.66, 0.6676, 0.5772, 0.6478, 0.6713],
  'Purchase-100 · SAM': [0.6662, 0.673, 0.5753, 0.6535, 0.6754],
  'Purchase-100 · SharpReg': [0.5958, 0.6096, 0.58, 0.5804, 0.6116],
  'Texas-100 · SGD': [0.5981, 0.652, 0.633, 0.5574, 0.6513],
  'Texas-100 · SAM': [0.5956, 0.6659, 0.646, 0.5714, 0.6542],
  'Texas-100 · SharpReg': [0.5111, 0.5989, 0.5715, 0.5346, 0.5936],
};

/** Table 4 (App. D): single run: [train acc, test acc, best single-query, best multi-query]. */
export const TABLE4: Readonly<Record<string, readonly number[]>> = {
  'CIFAR-100 · SGD': [0.9998, 0.803, 0.7704, 0.6907],
  'CIFAR-100 · SAM': [0.9998, 0.816, 0.7925, 0.6545],
  'CIFAR-100 · MemGuard': [0.9998, 0.77, 0.687, 0.699],
  'CIFAR-100 · AdvReg': [0.8939, 0.7224, 0.5839, 0.5929],
  'CIFAR-100 · SELENA': [0.8031, 0.7692, 0.5515, 0.5368],
  'CIFAR-100 · SharpReg(1.5,0.01,0.1)': [0.9639, 0.7648, 0.6215, 0.629],
  'CIFAR-100 · SharpReg(1.5,0.01,0.3)': [0.9321, 0.7614, 0.5969, 0.6044],
  'CIFAR-100 · SharpReg(1.5,0.01,0.5)': [0.8956, 0.7444, 0.5842, 0.5868],
  'CIFAR-100 · SharpReg(1.5,0.01,0.7)': [0.7642, 0.6704, 0.5434, 0.5455],
  'CIFAR-10 · SGD': [1, 0.96, 0.5899, 0.5636],
  'CIFAR-10 · SAM': [1, 0.9648, 0.6181, 0.5401],
  'CIFAR-10 · AdvReg': [0.9999, 0.9566, 0.5744, 0.5632],
  'CIFAR-10 · SELENA': [0.9575, 0.9462, 0.5549, 0.5177],
  'CIFAR-10 · SharpReg(1.5,0.01,0.1)': [0.9792, 0.9334, 0.5286, 0.5348],
  'Purchase-100 · SGD': [1, 0.855, 0.6713, 0.6559],
  'Purchase-100 · SAM': [1, 0.8554, 0.6754, 0.6606],
  'Purchase-100 · MemGuard': [0.9998, 0.832, 0.587, 0.658],
  'Purchase-100 · AdvReg': [0.948, 0.7894, 0.5907, 0.5916],
  'Purchase-100 · SELENA': [0.8808, 0.8124, 0.5437, 0.5439],
  'Purchase-100 · SharpReg(2.0,0.01,0.6)': [0.9878, 0.8229, 0.6116, 0.6127],
  'Texas-100 · SGD': [0.7828, 0.5083, 0.652, 0.645],
  'Texas-100 · SAM': [0.8117, 0.5134, 0.6659, 0.6536],
  'Texas-100 · MemGuard': [0.793, 0.523, 0.63, 0.647],
  'Texas-100 · AdvReg': [0.736, 0.4944, 0.6345, 0.6363],
  'Texas-100 · SELENA': [0.6024, 0.524, 0.5484, 0.5486],
  'Texas-100 · SharpReg(1.0,0.001,0.05)': [0.6465, 0.4949, 0.5989, 0.5851],
};
