import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

export function registerRecallCommands(parent: Command, getContext: () => CliContext): void {
  void parent;
  void getContext;
}
