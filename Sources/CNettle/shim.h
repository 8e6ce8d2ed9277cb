#pragma once
#include <nettle/hmac.h>
#include <nettle/sha1.h>
