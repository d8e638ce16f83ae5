"""help() and inspect.signature show every keyword the conversion methods take, as the type
stub lists them: the methods take ``**options`` in Rust, which alone showed nothing."""

import ast
import inspect
from pathlib import Path

import animbin

STUB = Path(animbin.__file__).with_name("__init__.pyi")


def stub_parameters(method: str) -> list[str]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    document = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Document")
    function = next(n for n in document.body if isinstance(n, ast.FunctionDef) and n.name == method)
    args = function.args
    return [a.arg for a in args.args + args.kwonlyargs]


def test_conversion_methods_show_their_keywords_as_the_stub_does():
    for method in ("to_gltf", "convert", "write", "scene"):
        runtime = inspect.signature(getattr(animbin.Document, method))
        assert list(runtime.parameters) == stub_parameters(method), method
        assert runtime.parameters["z_up"].kind is inspect.Parameter.KEYWORD_ONLY, method
        assert "z_up" in animbin.Document.__dict__[method].__text_signature__, method


def test_the_module_shows_only_its_own_names():
    # Helpers the module imports for itself are private: `dir(animbin)` and completion list
    # what animbin offers, not `typing.Any` or `sys`.
    assert not {"Any", "sys"} & set(dir(animbin))
