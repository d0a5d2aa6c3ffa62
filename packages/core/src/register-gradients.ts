// tfjs-core ships its gradient functions in a side-effect module that the union package
// `@tensorflow/tfjs` imports; users of `@tensorflow/tfjs-core` alone (as every @mia package is)
// would otherwise get "gradient function not found". Importing it twice is harmless.
import '@tensorflow/tfjs-core/dist/register_all_gradients';
