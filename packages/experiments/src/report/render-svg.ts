import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * Renders a Vega-Lite spec to a standalone SVG string in Node, without a browser or canvas
 * (Vega's headless SVG renderer). Data must be inline.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
