// Graph -> PackedGraph (CSR typed arrays). The implementation lives beside the JSON reader,
// which packs while it validates; this module is the name the rest of the code imports.
export { packGraph, loadGraph, unpackGraph } from './graph-json.ts';
