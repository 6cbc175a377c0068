// The differential test's oracle: reads JSON lines {"src": ...} on stdin
// and answers one JSON line each: the module specifiers a real parser
// (acorn) finds named literally, and whether the source loads code it
// cannot name ("open"). ok is false when acorn cannot parse the source.
'use strict';
const acorn = require(process.argv[2]);
const readline = require('readline');

function parse(src) {
  const base = { ecmaVersion: 'latest', allowHashBang: true, allowAwaitOutsideFunction: true,
    allowReturnOutsideFunction: true, allowImportExportEverywhere: true };
  for (const sourceType of ['module', 'script']) {
    try { return acorn.parse(src, Object.assign({ sourceType }, base)); } catch (e) { /* next */ }
  }
  return null;
}

function isStr(n) { return n && n.type === 'Literal' && typeof n.value === 'string'; }
function isId(n, name) { return n && n.type === 'Identifier' && n.name === name; }

function analyse(ast) {
  const specs = [];
  let open = false;
  const seen = new Set();
  function visit(n, parent, key) {
    if (!n || typeof n.type !== 'string' || seen.has(n)) return;
    seen.add(n);
    switch (n.type) {
      case 'ImportDeclaration': case 'ExportAllDeclaration': case 'ExportNamedDeclaration':
        if (n.source && isStr(n.source)) specs.push(n.source.value);
        break;
      case 'ImportExpression':
        if (isStr(n.source)) specs.push(n.source.value); else open = true;
        break;
      case 'CallExpression': {
        const c = n.callee;
        const req = isId(c, 'require') ||
          (c.type === 'MemberExpression' && !c.computed && isId(c.object, 'module') && isId(c.property, 'require'));
        if (req) {
          if (n.arguments.length >= 1 && isStr(n.arguments[0])) specs.push(n.arguments[0].value); else open = true;
        }
        if (isId(c, 'eval') || isId(c, 'Function')) open = true;
        break;
      }
      case 'NewExpression':
        if (isId(n.callee, 'Function')) open = true;
        break;
      case 'Identifier':
        // require used other than as a callee or an object of a member
        // expression (require.resolve): an alias.
        if (n.name === 'require' && parent) {
          const callee = parent.type === 'CallExpression' && key === 'callee';
          const member = parent.type === 'MemberExpression' && key === 'object';
          const prop = (parent.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
            (parent.type === 'Property' && key === 'key' && !parent.computed);
          const typeofOp = parent.type === 'UnaryExpression' && parent.operator === 'typeof';
          if (!callee && !member && !prop && !typeofOp) open = true;
        }
        if (n.name === 'eval' && !(parent && parent.type === 'MemberExpression' && key === 'property')) open = true;
        break;
    }
    for (const k of Object.keys(n)) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc' || k === 'range') continue;
      const v = n[k];
      if (Array.isArray(v)) for (const e of v) visit(e, n, k);
      else if (v && typeof v === 'object') visit(v, n, k);
    }
  }
  visit(ast, null, null);
  return { ok: true, specs, open };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let out;
  try {
    const ast = parse(JSON.parse(line).src);
    out = ast ? analyse(ast) : { ok: false };
  } catch (e) {
    out = { ok: false };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
