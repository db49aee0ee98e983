// A video task as stored in its session; progression is computed from it and the clock.

export interface VideoTask {
  id: string;
  model: string;
  prompt: string;
  createdMs: number;
}
