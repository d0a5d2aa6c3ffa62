import { InvalidArgumentError, describeValue } from '@mia/core';

/**
 * Byte length of the zlib-compressed (RFC 1950, default level) UTF-8 encoding of `text`: the
 * "zlib entropy" of Carlini et al. 2021, the same number as Python's
 * `len(zlib.compress(text.encode('utf-8')))` (checked on ASCII, repeated and multi-byte text).
 * Uses the web-standard `CompressionStream('deflate')` (Node ≥ 18, every current browser), so the
 * package stays free of Node imports and of a compression dependency.
 *
 * @param text - The record's text.
 * @returns The compressed length in bytes.
 * @throws InvalidArgumentError when `text` is not a string, or `CompressionStream` is missing.
 * @see Carlini et al., "Extracting Training Data from Large Language Models", USENIX Security 2021, §5.2 (zlib).
 */
export async function zlibByteLength(text: string): Promise<number> {
  if (typeof text !== 'string') throw new InvalidArgumentError(`zlibByteLength: text must be a string, got ${describeValue(text)}`);
  if (typeof CompressionStream !== 'function')
    throw new InvalidArgumentError(
      'zlibByteLength: this runtime has no CompressionStream (Node ≥ 18 or a current browser); give each record its zlibBytes instead',
    );
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  return (await new Response(stream).arrayBuffer()).byteLength;
}
