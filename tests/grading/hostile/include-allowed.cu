// hostile only to a screen that forbids every include: the toolkit's own header, which teaches
#include <cooperative_groups.h>
@REGION@