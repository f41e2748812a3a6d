import type { Plugin } from 'esbuild';

export declare const markdownItSlim: Plugin;
