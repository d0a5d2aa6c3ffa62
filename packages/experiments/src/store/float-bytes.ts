/** The bytes of a Float32Array (a view, no copy), as cache files store logits. @internal */
export const toBytes = (a: Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A Float32Array copied out of cached bytes (the copy realigns them to 4 bytes). @internal */
export const toFloats = (b: Uint8Array): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
