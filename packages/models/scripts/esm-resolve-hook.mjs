// Node resolve hook for the scripts: tfjs-core's ESM build (loaded when @mia/core imports
// '@tensorflow/tfjs-core/dist/register_all_gradients') uses extensionless relative imports, which
// Node's ESM resolver rejects. Retry them with '.js'. (Same as the repository's bench/ hook.)
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const fromTfjs = context.parentURL !== undefined && context.parentURL.includes('/@tensorflow/');
    if (fromTfjs && specifier.startsWith('.') && !specifier.endsWith('.js')) return nextResolve(`${specifier}.js`, context);
    throw error;
  }
}
