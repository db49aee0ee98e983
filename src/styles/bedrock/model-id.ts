// A Bedrock model id reduced to the catalog's id by rule (SPEC 23): an ARN's resource after its
// last `/`, a regional inference profile's geography, the vendor prefix and the `-vN:M` version
// suffix dropped, so a fixture written for `claude-sonnet-4-6` answers all of Bedrock's forms.
const GEOGRAPHIES = new Set(['us', 'eu', 'apac', 'global', 'us-gov', 'jp', 'au', 'ca']);

export function catalogModelId(modelId: string): string {
  const resource = modelId.startsWith('arn:') ? modelId.slice(modelId.lastIndexOf('/') + 1) : modelId;
  const segments = resource.split('.');
  // `vendor.model` or `geography.vendor.model`; a plain catalog id has no dot before its version.
  if (segments.length > 2 && GEOGRAPHIES.has(segments[0]!)) segments.shift();
  const bare = segments.length > 1 ? segments.slice(1).join('.') : resource;
  return bare.replace(/-v\d+(:\d+)?$/, '').replace(/:\d+$/, '');
}
