// Types of server-launch.mjs (plain JavaScript, read by package scripts and TypeScript alike).
export declare const SERVER_NODE_FLAGS: readonly string[];
