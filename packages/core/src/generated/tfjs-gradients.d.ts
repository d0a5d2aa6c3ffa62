/** Version of `@tensorflow/tfjs-core` whose gradient registrations the bundle holds. */
export declare const TFJS_CORE_VERSION: string;
