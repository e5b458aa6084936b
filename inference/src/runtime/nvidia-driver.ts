/**
 * The NVIDIA driver version on this host, for the refusal message and the start log: the kernel
 * module's /proc file first (no process to start), then nvidia-smi, else "none".
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function parseProcDriverVersion(text: string): string | undefined {
  return /Kernel Module(?: for [\w-]+)?\s+(\d+(?:\.\d+)+)/.exec(text)?.[1];
}

export function nvidiaDriverVersion(procFile = '/proc/driver/nvidia/version'): string {
  try {
    const version = parseProcDriverVersion(readFileSync(procFile, 'utf8'));
    if (version) return version;
  } catch {
    // no kernel module loaded: try nvidia-smi (a container may lack the /proc file but have the tool)
  }
  try {
    const out = execFileSync('nvidia-smi', ['--query-gpu=driver_version', '--format=csv,noheader'], {
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const version = out.toString().split('\n')[0]?.trim();
    if (version) return version;
  } catch {
    // no nvidia-smi either
  }
  return 'none';
}
