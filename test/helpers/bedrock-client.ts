// A Bedrock runtime client pointed at a test server, with the mock's own headers (session,
// scenario) added to every request, as the SDK has no option for extra headers.
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';

export function bedrockFor(url: string, headers: Record<string, string> = {}): BedrockRuntimeClient {
  const made = new BedrockRuntimeClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  made.middlewareStack.add(
    (next) => (args) => {
      Object.assign((args.request as { headers: Record<string, string> }).headers, headers);
      return next(args);
    },
    { step: 'build', name: 'mockHeaders' },
  );
  return made;
}
