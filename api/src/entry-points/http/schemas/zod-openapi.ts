import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds .openapi() to zod once, before any schema is declared: the schemas both validate requests
// and generate /docs/openapi.json, so the reference cannot drift from the code.
extendZodWithOpenApi(z);

export { z };
