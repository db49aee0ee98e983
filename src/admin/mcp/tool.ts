// What a tool is: a name, a description a model can act on, an input schema and a thin call of
// the admin API through an AdminClient.
import * as z from 'zod';
import type { AdminClient } from '../client.js';

export interface Tool {
  name: string;
  description: string;
  input: z.ZodObject;
  run(admin: AdminClient, input: never): Promise<string>;
}

export function tool<S extends z.ZodObject>(name: string, description: string, input: S, run: (admin: AdminClient, input: z.infer<S>) => Promise<string>): Tool {
  return { name, description, input, run: run as Tool['run'] };
}

export const session = z
  .string()
  .min(1)
  .describe('The session (as the x-mock-session header names it). Absent: the tool acts as its admin route does without ?session.');
