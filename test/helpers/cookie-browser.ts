// A browser as sign-in specs need one: it follows redirects on the server's origin by hand, keeps
// the cookies the sign-in pages set, and stops at the client's redirect URI (which it does not open,
// so the spec decides what reaches the client's callback).
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly stopAt: string) {}
  async open(url: string): Promise<{ status: number; url: string; text: string }> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      if (current.startsWith(this.stopAt)) return { status: 0, url: current, text: '' };
      const res = await fetch(current, { redirect: 'manual', headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const [k, v] = pair.split('=');
        if (v) this.cookies.set(k.trim(), v);
        else this.cookies.delete(k.trim());
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        current = new URL(location, current).href;
        continue;
      }
      return { status: res.status, url: current, text: await res.text() };
    }
    throw new Error('too many redirects');
  }
}
