// The `capabilities` of a messages-style model object (the SDK's `ModelCapabilities`, every key
// present). They say what the mock honours for the model, so a client that reads them before it
// calls finds the features that will work here: no batches, server tools or context editing.
import type { ModelEntry } from '../config/types.js';

const no = { supported: false } as const;
const yes = { supported: true } as const;
const when = (supported: boolean) => ({ supported });

function chatCapabilities(reasoning: boolean) {
  return {
    batch: no,
    citations: no,
    code_execution: no,
    context_management: { clear_thinking_20251015: null, clear_tool_uses_20250919: null, compact_20260112: null, supported: false },
    effort: {
      low: when(reasoning),
      medium: when(reasoning),
      high: when(reasoning),
      max: when(reasoning),
      xhigh: null,
      supported: reasoning,
    },
    image_input: yes,
    pdf_input: yes,
    server_tools: { code_execution: no, web_search: no, supported: false },
    structured_outputs: yes,
    thinking: {
      supported: reasoning,
      types: { adaptive: when(reasoning), between_tools: no, disabled: yes, enabled: when(reasoning) },
    },
  };
}

/** Null for image and video models: the messages style cannot call them. */
export function capabilitiesOf(model: ModelEntry) {
  return model.kind === 'chat' ? chatCapabilities(model.reasoning) : null;
}
