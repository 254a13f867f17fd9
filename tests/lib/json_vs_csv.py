"""json_vs_csv.py JSON CSV [KIND] — a test helper (tests/cli_outputs.sh): parses JSON with python's json
module and checks it against the CSV of the same run: schema and kind, every `# key: value` line in
"provenance", the header in "columns", and each row's cells (numbers equal as numbers, NA or empty as
null, the rest as strings). Prints one line per difference and exits 1 if any; prints "ok N rows"."""
import json
import re
import sys

NUM = re.compile(r'^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$')


def main():
    doc = json.load(open(sys.argv[1]))
    lines = [l.rstrip('\n') for l in open(sys.argv[2])]
    bad = []
    if doc.get('schema') != 'ddlbench-results/1':
        bad.append('schema %r' % doc.get('schema'))
    if len(sys.argv) > 3 and doc.get('kind') != sys.argv[3]:
        bad.append('kind %r, want %r' % (doc.get('kind'), sys.argv[3]))
    prov = {}
    for l in lines:
        if l.startswith('# ') and ': ' in l:
            k, v = l[2:].split(': ', 1)
            prov[k] = v
    if doc.get('provenance') != prov:
        bad.append('provenance differs: %r' % (set(prov.items()) ^ set(doc.get('provenance', {}).items())))
    body = [l for l in lines if l and not l.startswith('#')]
    cols = body[0].split(',')
    if doc.get('columns') != cols:
        bad.append('columns %r' % doc.get('columns'))
    rows = doc.get('rows', [])
    if len(rows) != len(body) - 1:
        bad.append('%d rows, CSV has %d' % (len(rows), len(body) - 1))
    cells = [line.split(',') for line in body[1:]]
    # one type a column: numbers only where every cell of the column is one (or NA)
    numeric = {n: all(c[k] in ('', 'NA') or NUM.match(c[k]) for c in cells) for k, n in enumerate(cols)}
    for i, (line, row) in enumerate(zip(body[1:], rows)):
        if list(row.keys()) != cols:
            bad.append('row %d: keys %r' % (i, list(row.keys())))
        for name, cell in zip(cols, line.split(',')):
            got = row.get(name)
            if cell in ('', 'NA'):
                ok = got is None
            elif NUM.match(cell) and numeric[name]:
                ok = isinstance(got, (int, float)) and not isinstance(got, bool) and float(cell) == float(got)
            else:
                ok = got == cell
            if not ok:
                bad.append('row %d %s: CSV %r, JSON %r' % (i, name, cell, got))
    for b in bad[:20]:
        print('FAIL json_vs_csv: ' + b)
    if not bad:
        print('ok %d rows' % len(rows))
    return 1 if bad else 0


sys.exit(main())
