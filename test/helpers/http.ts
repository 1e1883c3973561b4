/** POSTs JSON to a served Kiln (`base` is `http://127.0.0.1:PORT`) and reads the JSON answer with its status. */
export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, body: await res.json() };
}
