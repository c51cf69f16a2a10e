"""papermill's parameter translator for gocl.

papermill injects the values given with -p, -r, -y and -f as a cell after
the notebook's `parameters`-tagged cell. For gocl that cell is Go: each
parameter becomes a short variable declaration, `name := literal`, which a
later cell sees as it would see the parameters cell's own declaration.

    papermill in.ipynb out.ipynb -p size 4096 -p kind pinned -y 'sizes: [1024, 4096]'

injects

    // Parameters
    size := 4096
    kind := "pinned"
    sizes := []int{1024, 4096}

Python int, float, str and bool become Go int, float64, string and bool; a
list becomes a slice and a dict with string keys a map[string]T, where T is
the one type of the elements (int and float64 together make float64), or
`any` when they differ. A value Go cannot spell as a literal (None at the
top, a dict with non-string keys, an int beyond int64, a name that is not a
Go identifier) raises GoParameterError, which papermill shows before it runs
anything.

How papermill finds it: papermill 2.7 has no entry point for translators
(it registers its own in papermill/translators.py), but it loads every
`papermill.engine` entry point when it starts. gocl-jupyter declares one,
an engine named gocl that is papermill's own nbclient engine, and loading
it registers this translator for the kernel gocl. The package also declares
a `papermill.translators` entry point, for a papermill that reads one.

As with Go constants, `-p scale 2` is an int: write `-p scale 2.0` for a
float64.
"""
import math
import re

from papermill.models import Parameter
from papermill.translators import Translator, papermill_translators

GO_KEYWORDS = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if "
    "import interface map package range return select struct switch type var".split()
)
_IDENT = re.compile(r"^[^\W\d]\w*$", re.UNICODE)
# A top-level declaration in a parameters cell: `name := value // help` or
# `var name T = value // help`. A // inside a string literal ends the value
# early; the value is only shown to the user.
_DECL = re.compile(
    r"^(?:(?P<name>[^\W\d]\w*)\s*:=\s*(?P<value>[^/]*?)"
    r"|var\s+(?P<vname>[^\W\d]\w*)\s+(?P<vtype>[^=/]+?)(?:\s*=\s*(?P<vvalue>[^/]*?))?)"
    r"\s*(?://(?P<help>.*))?$"
)
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class GoParameterError(ValueError):
    """A papermill parameter that has no Go literal."""


def go_string(s):
    """A Go interpreted string literal for s, as strconv.Quote writes it."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0xD800 <= o <= 0xDFFF:
            raise GoParameterError(
                f"the string {s!r} holds a lone UTF-16 surrogate (U+{o:04X}), which no Go string can hold"
            )
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif not ch.isprintable():
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_type(v, where):
    """The Go type a Python value translates to."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, str):
        return "string"
    if v is None:
        return "any"  # only inside a slice or map of any
    if isinstance(v, (list, tuple)):
        return "[]" + common_type([go_type(e, f"{where}[{i}]") for i, e in enumerate(v)])
    if isinstance(v, dict):
        for k in v:
            if not isinstance(k, str):
                raise GoParameterError(
                    f"{where} has the key {k!r} ({type(k).__name__}); gocl translates dicts to map[string]T, "
                    "so every key must be a string (quote it in YAML)"
                )
        return "map[string]" + common_type([go_type(e, f"{where}[{k!r}]") for k, e in v.items()])
    raise GoParameterError(
        f"{where} is a {type(v).__name__} ({v!r}), which has no Go literal; "
        "gocl's papermill parameters are ints, floats, strings, bools, and lists and string-keyed dicts of them"
    )


def common_type(types):
    kinds = set(types)
    if len(kinds) == 1:
        return types[0]
    if kinds == {"int", "float64"}:
        return "float64"
    return "any"


def go_literal(v, typ, where):
    """A Go expression of type typ (or untyped, assignable to it) for v."""
    if typ == "any":
        if v is None:
            return "nil"
        # Untyped constants in an any take their default types (int, float64,
        # string, bool); slices and maps carry theirs.
        typ = go_type(v, where)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if not INT64_MIN <= v <= INT64_MAX:
            raise GoParameterError(f"{where} is {v}, beyond Go's int (64 bits); pass it as a string or a float")
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "math.NaN()"
        if math.isinf(v):
            return "math.Inf(1)" if v > 0 else "math.Inf(-1)"
        r = repr(v)
        return r if any(c in r for c in ".e") else r + ".0"
    if isinstance(v, str):
        return go_string(v)
    if isinstance(v, (list, tuple)):
        elem = typ[2:]
        return typ + "{" + ", ".join(go_literal(e, elem, f"{where}[{i}]") for i, e in enumerate(v)) + "}"
    if isinstance(v, dict):
        elem = typ[len("map[string]"):]
        return typ + "{" + ", ".join(
            f"{go_string(k)}: {go_literal(e, elem, f'{where}[{k!r}]')}" for k, e in v.items()
        ) + "}"
    raise GoParameterError(f"{where} ({v!r}) has no Go literal")


def go_declaration(name, value):
    """The Go statement that gives the parameter name its value."""
    if not isinstance(name, str) or not _IDENT.match(name) or name in GO_KEYWORDS:
        raise GoParameterError(
            f"papermill parameter {name!r} is not a Go identifier (letters, digits and _, not starting with a digit, "
            "not a keyword), so no Go variable can have its name"
        )
    if name == "_":
        raise GoParameterError("papermill parameter '_' is Go's blank identifier; give the parameter a name")
    where = f"papermill parameter {name}"
    if value is None:
        raise GoParameterError(
            f"{where} is None, and Go has no untyped nil variable: give it a value, "
            "or leave it out and keep the parameters cell's default"
        )
    typ = go_type(value, where)
    lit = go_literal(value, typ, where)
    return f"{name} := {lit}"


class GoTranslator(Translator):
    """Translates papermill parameters into a gocl cell of Go declarations."""

    @classmethod
    def comment(cls, cmt_str):
        return f"// {cmt_str}".strip()

    @classmethod
    def assign(cls, name, str_val):
        return f"{name} := {str_val}"

    @classmethod
    def translate(cls, val):
        return go_literal(val, go_type(val, "the value"), "the value")

    @classmethod
    def inspect(cls, parameters_cell):
        """The parameters a gocl parameters cell declares (`name := value`,
        `var name T = value`, with a trailing // comment as help), for
        papermill --help-notebook and its unknown-parameter warning."""
        params = []
        for line in parameters_cell.source.splitlines():
            m = _DECL.match(line)
            if not m:
                continue
            name = m.group("name") or m.group("vname")
            value = (m.group("value") or m.group("vvalue") or "").strip()
            params.append(Parameter(name=name, inferred_type_name=m.group("vtype") or "None",
                                    default=value, help=(m.group("help") or "").strip()))
        return params

    @classmethod
    def codify(cls, parameters, comment="Parameters"):
        lines = [cls.comment(comment)]
        for name, val in parameters.items():
            lines.append(go_declaration(name, val))
        return "\n".join(lines) + "\n"


# Registered for the kernel name, not the language: other Go kernels have
# their own rules for what a cell may redeclare.
papermill_translators.register("gocl", GoTranslator)
