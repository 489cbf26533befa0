#!/usr/bin/env python3
"""Validates a JSON document against the JSON-Schema subset AscendPrec's
report schema uses (type, required, properties, additionalProperties, items,
enum, minimum, pattern). Usage: validate-report.py SCHEMA.json REPORT.json"""

import json
import re
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
         "null": type(None)}


def type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def validate(value, schema, path, errors):
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_ok(value, n) for n in names):
            errors.append(f"{path}: expected {' or '.join(names)}, found {type(value).__name__}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below {schema['minimum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing required key '{key}'")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                validate(item, props[key], f"{path}.{key}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected key '{key}'")
            elif isinstance(extra, dict):
                validate(item, extra, f"{path}.{key}", errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], f"{path}[{i}]", errors)


def main():
    schema = json.load(open(sys.argv[1]))
    report = json.load(open(sys.argv[2]))
    errors = []
    validate(report, schema, "$", errors)
    for error in errors:
        print(error)
    if errors:
        return 1
    print(f"{sys.argv[2]}: valid ({len(report.get('nodes', []))} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
