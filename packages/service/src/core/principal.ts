// Who makes a call: the domain records it (an operation's `user`); `auth/` decides it.

/**
 * Who is calling, with what scopes and IAM permissions.
 *
 * @example
 * ```ts
 * emulator.app.use('*', async (c, next) => {
 *   await next();
 *   console.log(c.get('principal')); // the Principal's identity, such as 'ci@example.com'
 * });
 * ```
 */
export interface Principal {
  /** An email-like identity; it appears as the `user` of operations. */
  identity: string;
  /** Full OAuth scope URLs, or `'all'` in open mode. */
  scopes: ReadonlySet<string> | 'all';
  /** IAM permissions per project id (`'*'` for every project), or `'all'` in open mode. */
  permissions: Readonly<Record<string, readonly string[]>> | 'all';
}
