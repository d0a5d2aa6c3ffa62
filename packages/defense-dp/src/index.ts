export { rdpOf, type RdpOfOptions } from './accountant/rdp-of';
export { epsilonOf, type EpsilonOfOptions } from './accountant/epsilon-of';
export { epsilonFromRdp, type EpsilonFromRdpOptions, type PrivacySpent } from './accountant/epsilon-from-rdp';
export { noiseMultiplierFor, type NoiseMultiplierForOptions } from './accountant/noise-multiplier-for';
export { DEFAULT_ORDERS, type RdpConversion } from './accountant/accountant-options';
