#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Render a LAVA device dictionary or job template of lava/ as LAVA's server
# renders them (jinja2, trim_blocks), then check it is YAML (and, for a
# job, LAVA's own schema: lava_common.schemas.validate, strict).
#
#   lava-render.py [--templates DIR]... [--job] [-D NAME=VALUE]...
#                  [-L NAME=VALUE]... TEMPLATE OUT
#     --templates DIR  more template directories, searched before lava/
#                      (Debian's lava-server device types, for a device
#                      dictionary)
#     --job            OUT is a job: validate it with LAVA's schema
#     -D NAME=VALUE    a variable; -L NAME=VALUE appends VALUE to the list NAME
#
# TEMPLATE is a path under lava/ (e.g. jobs/qemu-mali.yaml.jinja2).
import argparse
import os
import sys

import jinja2
import yaml


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lava")
    ap = argparse.ArgumentParser(description="render a LAVA template of lava/")
    ap.add_argument("--templates", action="append", default=[])
    ap.add_argument("--job", action="store_true")
    ap.add_argument("-D", dest="defs", action="append", default=[])
    ap.add_argument("-L", dest="lists", action="append", default=[])
    ap.add_argument("template")
    ap.add_argument("out")
    a = ap.parse_args()

    ctx = {}
    for d in a.defs:
        k, sep, v = d.partition("=")
        if not sep or not k:
            sys.exit("lava-render.py: -D %r: give NAME=VALUE" % d)
        ctx[k] = v
    for d in a.lists:
        k, sep, v = d.partition("=")
        if not sep or not k:
            sys.exit("lava-render.py: -L %r: give NAME=VALUE" % d)
        ctx.setdefault(k, []).append(v)

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(a.templates + [top]),
        trim_blocks=True,
        autoescape=False,
        undefined=jinja2.StrictUndefined if a.job else jinja2.Undefined,
    )
    try:
        text = env.get_template(a.template).render(**ctx)
    except jinja2.TemplateError as e:
        sys.exit("lava-render.py: %s: %s" % (a.template, e))
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        sys.exit("lava-render.py: %s does not render to YAML: %s" % (a.template, e))
    if not isinstance(data, dict):
        sys.exit("lava-render.py: %s renders to no mapping" % a.template)
    if a.job:
        from lava_common.schemas import validate
        try:
            validate(data, strict=True)
        except Exception as e:  # voluptuous.Invalid and friends
            sys.exit("lava-render.py: %s: LAVA's job schema refuses it: %s" % (a.template, e))
    with open(a.out + ".tmp", "w") as f:
        f.write(text)
    os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
