// A content hash of the seeded documents, recorded in verdicts and results so an auditor can
// tell two runs saw identical data.
import { createHash } from 'node:crypto';
import type { DocumentsDataset } from './model.ts';

export function fingerprintDocuments(data: DocumentsDataset): string {
  const hash = createHash('sha256');
  for (const document of data.documents) hash.update(JSON.stringify(document)).update('\n');
  return `sha256:${hash.digest('hex')}`;
}
