import { ChildProcess } from 'child_process';
export declare const distPath: string;
export interface ScriptResult {
    status: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
    /** The JSON the script printed with `report(...)`. */
    report: any;
}
/**
 * Runs `body` in a new node process with `cuda` bound to the package and a
 * `report(value)` function that sends a JSON value back.
 */
export declare function runScript(body: string, env?: Record<string, string | undefined>, args?: string[]): ScriptResult;
/** A script started with startScript: the process, and its result once it has exited. */
export interface StartedScript {
    child: ChildProcess;
    result: Promise<ScriptResult>;
}
/** runScript without waiting: the test talks to the running process meanwhile. */
export declare function startScript(body: string, env?: Record<string, string | undefined>, args?: string[]): StartedScript;
/** Builds test/fixtures/fake-libcuda.c (once per source version) and returns its path. */
export declare function fakeDriver(variant?: 'normal' | 'no-proc-address'): string;
/** Builds test/fixtures/fake-libnvrtc.c (once per source version) and returns its path. */
export declare function fakeNvrtc(variant?: 'normal' | 'incomplete'): string;
/** Builds test/fixtures/fd-flood.c, a program that breaks the descriptor channel's rules. */
export declare function fdFlood(): string;
