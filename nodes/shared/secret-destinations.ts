// Where a deployed config node's stored secrets may be sent from the editor. The dialogs' Test
// routes ("Test connection", the tool lists of an undeployed server, gemini-agent's Test prompt)
// connect with the dialog's current settings, and reuse the stored token, secret headers, OAuth
// tokens or API key when the dialog sends the password placeholder. Reused only for the destination
// they were deployed with: otherwise anyone allowed to open the dialog could point the URL at a
// server of their own and receive the token.
const destinations = new Map<string, string>();

/** What the editor sends for a stored password credential it does not show (Node-RED's own placeholder). */
export const PASSWORD_PLACEHOLDER = '__PWRD__';

/** A node's constructor records where its secrets go (its URL, its command line, its base URL). */
export function rememberSecretDestination(nodeId: string, destination: string): () => void {
  destinations.set(nodeId, destination);
  return () => {
    if (destinations.get(nodeId) === destination) destinations.delete(nodeId);
  };
}

/** True when the node is deployed with exactly this destination, so its stored secrets may go there. */
export function storedSecretsMayGo(nodeId: string | undefined, destination: string): boolean {
  return nodeId !== undefined && destinations.get(nodeId) === destination;
}

export const SECRET_STAYS =
  'The stored secret is sent only to the address this node was deployed with: type it again to test another address, or deploy first.';

/** An mcp-server's destination: its transport and its URL or command line. */
export const serverDestination = (s: { transport: string }, describe: string) => `${s.transport} ${describe}`;

/** A gemini-agent's destination: its base URL (blank: Google's own endpoint). */
export const geminiDestination = (baseUrl: string | undefined) => `gemini ${baseUrl ?? ''}`;
