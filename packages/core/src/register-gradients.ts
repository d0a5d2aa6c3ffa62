// tfjs-core ships its gradient functions in a side-effect module that the union package
// `@tensorflow/tfjs` imports; users of `@tensorflow/tfjs-core` alone (as every @mia package is)
// would otherwise get "gradient function not found". That module cannot be imported directly under
// Node's ESM loader (extensionless imports), so we ship it pre-bundled (docs/decisions/0006).
// Registering a gradient twice is harmless.
import './generated/tfjs-gradients.js';
