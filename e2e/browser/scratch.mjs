// scratch.mjs writes the notebook the interactive part of the browser test
// works in: a variable, a loop to interrupt, a cell that uses the variable,
// a half-written line to complete after non-ASCII text (an accented letter
// and an emoji, which is two UTF-16 code units but one code point), and a
// cell that reads stdin; and a slider whose OnChange writes into an Output
// through a func value (issue 23: both must outlive an interrupt).

import fs from 'node:fs';
import path from 'node:path';

// scratchCells names each cell's index in the scratch notebook.
export const scratchCells = { setX: 0, spin: 1, useX: 2, complete: 3, stdin: 4, widget: 5 };

const sources = [
  'x := 41',
  'for {\n}',
  'x + 1',
  's := "héllo🙂"; _ = s; strings.ToUp',
  'var who string\nfmt.Print("name? ")\nfmt.Scanln(&who)\nfmt.Println("hello,", who)',
  'twice := func(n int) int { return 2 * n }\nsl := widgets.NewIntSlider("n", 0, 100, 10)\nshown := widgets.NewOutput()\n' +
    'sl.OutputTo(shown)\nsl.OnChange(func(n int) { shown.Replace(fmt.Sprintf("twice %d = %d", n, twice(n))) })\nwidgets.Show(sl, shown)',
];

// writeScratch writes the notebook into dir and returns its path.
export function writeScratch(dir) {
  const nb = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'gocl', display_name: 'Go (gocl)', language: 'go' },
      language_info: { name: 'go' },
    },
    cells: sources.map((src, i) => ({
      cell_type: 'code', id: `scratch-${i}`, metadata: {}, execution_count: null, outputs: [], source: src,
    })),
  };
  const file = path.join(dir, 'zz-scratch.ipynb');
  fs.writeFileSync(file, JSON.stringify(nb, null, 1));
  return file;
}
