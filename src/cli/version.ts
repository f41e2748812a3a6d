/** `vtplan --version`, also the version the MCP server announces. */
export const CLI_VERSION = '0.1.0';
