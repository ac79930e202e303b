"""URL routes: the admin, the health check; pages and the API join as they are built."""

from django.contrib import admin
from django.urls import include, path

from config.health import healthz

admin.site.site_header = "VABG League Manager"
admin.site.site_title = "VABG commissioner"
admin.site.index_title = "Commissioner's desk"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/", include("config.api")),
    path("table/", include("table.urls")),
    path("", include("league.urls")),
]
