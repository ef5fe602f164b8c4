// server-everything over stdio: resources, templates, prompts, roots, elicitation, sampling, progress, cancellation.
import { defineSuite } from './suite';

defineSuite('stdio');
