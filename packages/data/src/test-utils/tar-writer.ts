import { gzipSync } from 'node:zlib';

/** Builds a ustar `.tar.gz` holding `files` (test fixture writer, POSIX ustar layout). */
export function makeTarGz(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const { name, bytes } of files) {
    const header = new Uint8Array(512);
    const put = (text: string, offset: number): void => header.set(new TextEncoder().encode(text), offset);
    put(name, 0);
    put('0000644\0', 100);
    put('0000000\0', 108);
    put('0000000\0', 116);
    put(`${bytes.length.toString(8).padStart(11, '0')}\0`, 124);
    put('00000000000\0', 136);
    put('0', 156);
    put('ustar\0', 257);
    put('00', 263);
    put('        ', 148);
    const sum = header.reduce((a, b) => a + b, 0);
    put(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header);
    const body = new Uint8Array(Math.ceil(bytes.length / 512) * 512);
    body.set(bytes);
    blocks.push(body);
  }
  blocks.push(new Uint8Array(1024));
  const tar = new Uint8Array(blocks.reduce((s, b) => s + b.length, 0));
  let o = 0;
  for (const b of blocks) {
    tar.set(b, o);
    o += b.length;
  }
  return gzipSync(tar);
}
