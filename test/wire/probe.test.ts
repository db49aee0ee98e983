import { it } from 'vitest';
import { keysOf, tagsOf } from './sdk-shapes.js';
it('probe', () => {
  const c = 'openai/resources/chat/completions/completions.d.ts';
  const r = 'openai/resources/responses/responses.d.ts';
  console.log(JSON.stringify({
    chat: keysOf(c, 'ChatCompletionCreateParamsBase'), roles: tagsOf(c, 'ChatCompletionMessageParam', 'role'),
    parts: tagsOf(c, 'ChatCompletionContentPart', 'type'), tools: tagsOf(c, 'ChatCompletionTool', 'type'),
    choice: tagsOf(c, 'ChatCompletionToolChoiceOption', 'type'), asstParts: tagsOf(c, 'ChatCompletionAssistantMessageParam', 'type', 'content'),
    rparams: keysOf(r, 'ResponseCreateParamsBase'), items: tagsOf(r, 'ResponseInputItem', 'type'),
    content: tagsOf(r, 'ResponseInputContent', 'type'), rtools: tagsOf(r, 'Tool', 'type'), rchoice: tagsOf(r, 'ResponseCreateParamsBase', 'type', 'tool_choice'),
  }, null, 0));
});
