import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

export function registerMemoryCommands(parent: Command, getContext: () => CliContext): void {
  void parent;
  void getContext;
}
