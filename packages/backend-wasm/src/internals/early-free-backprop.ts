import type { Tensor } from '@tensorflow/tfjs-core';

/** The members of tfjs-core's `Engine` (4.22) that the hook uses. */
interface TapeNode {
  saved?: Tensor[];
  gradient?: (dys: (Tensor | null)[]) => Record<string, () => Tensor>;
}
interface EngineLike {
  state: { gradientDepth: number; activeTape: TapeNode[] | null };
  backendName: string;
  gradients(f: () => Tensor, xs: Tensor[], dy?: Tensor, allowNoGradients?: boolean): { value: Tensor; grads: Tensor[] };
  addTapeNode(...args: unknown[]): void;
  nextTensorId(): number;
}

/** The last tape node whose gradient ran: what can be freed once the walk moves past it. */
interface Pending {
  dys: Tensor[];
  saved: Tensor[];
  /** What the node's gradient functions returned (a pass-through dy stays alive). */
  returned: Set<Tensor>;
}

/** One backward pass: enabled only at the top level (no higher-order gradients) on `wasm`. */
interface Pass {
  enabled: boolean;
  /** Tensors with a smaller id existed before back-propagation began (the root dy, the caller's tensors). */
  firstId: number | undefined;
  pending: Pending | undefined;
  /** How often each tensor was returned as an input gradient in this pass. */
  returned: Map<Tensor, number>;
}

const installed = Symbol.for('@mia/backend-wasm.earlyFreeBackprop');

/**
 * Frees memory during back-propagation instead of at its end.
 *
 * tfjs-core 4.22 keeps, until the whole backward pass is done, every tensor saved for the backward
 * pass and the gradient of every intermediate tensor: the peak is all activations plus all their
 * gradients (ResNet-18 at batch 128 needs more than the 4 GB wasm heap that way). The tape is walked
 * strictly backwards and the gradient of a node's outputs and the node's saved tensors are read
 * only by that node, so once the walk reaches the next node they are disposed, except tensors made
 * before the backward pass (the `dy` the caller gave, a tensor a custom gradient returned), a `dy`
 * the node passed through as an input gradient, and a tensor returned for two inputs.
 *
 * Applies only to top-level `gradients` calls (not to higher-order gradients, where saved tensors
 * are needed again) while the `wasm` backend is active; everything else runs tfjs unchanged.
 * Idempotent.
 *
 * @param engine - `tf.engine()`.
 */
export function installEarlyFreeBackprop(engine: unknown): void {
  const e = engine as EngineLike & { [installed]?: true };
  if (e[installed] === true) return;
  const passes: Pass[] = [];
  const gradients = e.gradients.bind(e);
  const addTapeNode = e.addTapeNode.bind(e);
  e.gradients = (f, xs, dy, allowNoGradients) => {
    passes.push({ enabled: e.state.gradientDepth === 0 && e.backendName === 'wasm', firstId: undefined, pending: undefined, returned: new Map() });
    try {
      return gradients(f, xs, dy, allowNoGradients);
    } finally {
      passes.pop();
    }
  };
  e.addTapeNode = (...args: unknown[]) => {
    addTapeNode(...args);
    const tape = e.state.activeTape;
    const node = tape?.[tape.length - 1];
    const gradient = node?.gradient;
    if (node === undefined || gradient === undefined) return;
    node.gradient = (dys) => {
      const pass = passes[passes.length - 1];
      if (pass === undefined || !pass.enabled) return gradient(dys);
      pass.firstId ??= e.nextTensorId();
      release(pass);
      const grads = gradient(dys);
      const returned = new Set<Tensor>();
      const wrapped: Record<string, () => Tensor> = {};
      for (const [name, grad] of Object.entries(grads)) {
        wrapped[name] = () => {
          const dx = grad();
          returned.add(dx);
          pass.returned.set(dx, (pass.returned.get(dx) ?? 0) + 1);
          return dx;
        };
      }
      pass.pending = { dys: dys.filter((d): d is Tensor => d !== null), saved: node.saved ?? [], returned };
      return wrapped;
    };
  };
  e[installed] = true;
}

function release(pass: Pass): void {
  const pending = pass.pending;
  if (pending === undefined) return;
  // A gradient is freed when it was made in this backward pass, is no input gradient of the node
  // itself (pass-through), and was returned at most once (not one tensor for two inputs).
  for (const t of pending.dys) {
    if (t.id > (pass.firstId as number) && !pending.returned.has(t) && (pass.returned.get(t) ?? 0) <= 1) t.dispose();
  }
  for (const t of pending.saved) if (!pending.returned.has(t) && !pass.returned.has(t)) t.dispose();
  pass.pending = undefined;
}
