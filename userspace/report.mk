# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope report: its SVG writer. Included at the end of
# userspace/Makefile (after record.mk).

$(OUTPUT)/chainscope: $(OUTPUT)/report_svg.o
