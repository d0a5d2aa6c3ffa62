import type { NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../native-addon';
import type { HeapBackend } from './heap-backend';

/** Arguments of a kernel function (tfjs passes inputs by name; AddN as an array). */
export interface NativeKernelArgs {
  inputs: Record<string, TensorInfo> | TensorInfo[];
  backend: HeapBackend;
  attrs: NamedAttrMap;
}

/** What a native kernel gets besides its arguments. */
export interface NativeKernelContext {
  readonly addon: NativeAddon;
  /** Runs the kernel registered before this one (counted as a fallback, with the reason). */
  fallback(reason: string): TensorInfo | TensorInfo[];
}

/** A native kernel: computes the case it supports, or calls `ctx.fallback(reason)`. */
export interface NativeKernelConfig {
  /** tfjs kernel name, e.g. `Conv2D`. */
  readonly kernelName: string;
  /** The addon function the kernel calls, when an addon built before it may lack it: the kernel is then not registered. */
  readonly addonFunction?: keyof NativeAddon;
  run(args: NativeKernelArgs, ctx: NativeKernelContext): TensorInfo | TensorInfo[];
}

/** The named input `name` (throws when tfjs passed none). */
export function input(args: NativeKernelArgs, name: string): TensorInfo {
  const t = (args.inputs as Record<string, TensorInfo>)[name];
  if (t === undefined) throw new Error(`@mia/backend-native: input ${name} is missing`);
  return t;
}

/** The named input `name`, or undefined. */
export function optionalInput(args: NativeKernelArgs, name: string): TensorInfo | undefined {
  return (args.inputs as Record<string, TensorInfo | undefined>)[name] ?? undefined;
}
