#pragma once
#include <gdk-pixbuf/gdk-pixbuf.h>
