import type * as vscode from 'vscode';

/** API keys live only in VS Code's SecretStorage (ADD-1), one per provider. */
export class ApiKeys {
  constructor(private readonly storage: vscode.SecretStorage) {}

  private key(provider: 'openai' | 'anthropic'): string {
    return `vtplan.apiKey.${provider}`;
  }

  get(provider: 'openai' | 'anthropic'): Thenable<string | undefined> {
    return this.storage.get(this.key(provider));
  }

  async set(provider: 'openai' | 'anthropic', value: string): Promise<void> {
    await this.storage.store(this.key(provider), value);
  }

  async clear(provider: 'openai' | 'anthropic'): Promise<void> {
    await this.storage.delete(this.key(provider));
  }
}
