// server-everything over http: resources, templates, prompts, roots, elicitation, sampling, progress, cancellation.
import { defineSuite } from './suite';

defineSuite('http');
