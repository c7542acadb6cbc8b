#include "qryn/ConnectionSettings.h"

#include <QFileInfo>
#include <QSslCertificate>
#include <QSslSocket>

namespace qflame::qryn {

QString ConnectionSettings::validate() const
{
    if (url.isEmpty())
        return QStringLiteral("no server URL given");
    if (!url.isValid())
        return QStringLiteral("'%1' is not a valid URL: %2").arg(url.toString(), url.errorString());
    const QString scheme = url.scheme().toLower();
    if (scheme != u"http" && scheme != u"https")
        return QStringLiteral("'%1' is not an http:// or https:// URL").arg(displayUrl());
    if (url.host().isEmpty())
        return QStringLiteral("'%1' names no host").arg(displayUrl());
    if (!url.userName().isEmpty() || !url.password().isEmpty())
        return QStringLiteral("put credentials in the user and password settings, not in the URL");
    if (!user.isEmpty() && !bearerToken.isEmpty())
        return QStringLiteral("give either a user and password or a bearer token, not both");
    if (user.isEmpty() && !password.isEmpty())
        return QStringLiteral("a password needs a user name");
    if (timeoutMs <= 0)
        return QStringLiteral("the timeout must be positive");
    if (maxResponseBytes <= 0)
        return QStringLiteral("the response size limit must be positive");
    if (scheme == u"https" && !QSslSocket::supportsSsl())
        return QStringLiteral("TLS is not available: Qt found no TLS backend (OpenSSL) on this system");
    if (!caFile.isEmpty()) {
        if (!QFileInfo(caFile).isReadable())
            return QStringLiteral("cannot read the CA file %1").arg(caFile);
        if (QSslCertificate::fromPath(caFile, QSsl::Pem).isEmpty())
            return QStringLiteral("the CA file %1 holds no PEM certificate").arg(caFile);
    }
    return {};
}

QString ConnectionSettings::displayUrl() const
{
    QString s = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
    while (s.endsWith(u'/'))
        s.chop(1);
    return s;
}

}   // namespace qflame::qryn
