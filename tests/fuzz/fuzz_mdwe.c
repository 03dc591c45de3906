// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mdwe - the parsers of what rtla mdwe reads from a captured tree:
 * /proc/PID/maps text and /proc/PID/status lines.
 *
 * Every input is tried as both. What the maps scan reports must hold
 * together: never more W+X mappings than lines, a name only with a mapping
 * and always NUL-terminated within its buffer; the same text scanned twice
 * gives the same result.
 */
#include <errno.h>

#include "fuzz.h"
#include "mdwe_check/mdwe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mdwe_wx wx, again;
	struct mdwe_status st;
	char *text = malloc(size + 1);
	int ret;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	ret = mdwe_maps_scan(text, size, &wx);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	FUZZ_CHECK(wx.count <= wx.lines);
	FUZZ_CHECK(memchr(wx.first, '\0', sizeof(wx.first)) != NULL);
	FUZZ_CHECK(wx.count || !wx.first[0]);
	FUZZ_CHECK(!wx.count || wx.first[0]);
	FUZZ_CHECK(mdwe_maps_scan(text, size, &again) == ret);
	FUZZ_CHECK(again.count == wx.count && again.bytes == wx.bytes && again.lines == wx.lines);
	FUZZ_CHECK(!strcmp(again.first, wx.first));

	mdwe_status_parse(text, &st);
	FUZZ_CHECK(memchr(st.name, '\0', sizeof(st.name)) != NULL);
	FUZZ_CHECK(st.ppid >= -1 && st.uid >= -1);
	FUZZ_CHECK(st.seccomp >= -1 && st.nnp >= -1 && st.kthread >= -1);
	if (mdwe_seccomp_name(st.seccomp))
		FUZZ_CHECK(st.seccomp <= 2);
	free(text);
	return 0;
}
